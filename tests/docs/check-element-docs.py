#!/usr/bin/env python3
"""Checks docs/elements/<element>.md against gst-inspect-1.0, so that the
element pages cannot drift from the plugin.

For every element of the texel plugin (as `gst-inspect-1.0 texel` lists
them) it fails when:
  * docs/elements/<element>.md is missing, or docs/index.md does not link it;
  * a property (other than GstObject's name and parent) has no row
    "| `property` | ... |" in the page's tables;
  * a row's default column does not show the property's default, or an enum
    property's row does not name each of its values;
  * a row's description does not begin with the property's description as
    gst-inspect-1.0 prints it (backticks aside; a page may add text after
    it), or, on a page whose table says it is generated, is not exactly
    what --generate writes;
  * a row's "changeable" column does not say what the flags say: read-only,
    any state (changeable in PLAYING), NULL/READY, or not stated, and
    "controllable" exactly where the property is;
  * a documented property row names no property of the element (stale);
  * a format of the pad templates is not mentioned on the page.

  check-element-docs.py DOCS_DIR                  check (exit 1 on a mismatch)
  check-element-docs.py --generate ELEMENT        print a page skeleton
  check-element-docs.py --update DOCS_DIR         rewrite the properties table
                                                  of every page that says it is
                                                  generated (scripts/update-element-docs.sh)

GST_PLUGIN_PATH (or GST_PLUGIN_PATH_1_0) must point at the plugin to check.
"""
import os
import re
import subprocess
import sys

PLUGIN = "texel"
INHERITED_IGNORED = {"name", "parent"}
# A page whose properties table is --generate's output says so.
GENERATED_MARK = "generated from `gst-inspect-1.0"


def inspect(what):
    r = subprocess.run(["gst-inspect-1.0", what], capture_output=True,
                       text=True, env=dict(os.environ, LC_ALL="C"))
    if r.returncode != 0:
        sys.exit(f"gst-inspect-1.0 {what} failed ({r.returncode}):\n{r.stderr}")
    # gst-inspect colours its output only on a terminal; strip it anyway.
    return re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)


def elements():
    out = inspect(PLUGIN)
    names = re.findall(r"^  ([a-z0-9_]+): ", out, re.M)
    if not names:
        sys.exit(f"no elements in the {PLUGIN} plugin:\n{out}")
    return names


class Prop:
    def __init__(self, name, blurb):
        self.name, self.blurb = name, blurb
        self.flags, self.type, self.default = "", "", None
        self.nicks = []

    def default_forms(self):
        """How the default may be written in the table."""
        d = self.default
        if d is None:
            return []
        forms = [d]
        m = re.match(r"-?\d+$", d)
        if m and self.type.startswith("Unsigned"):
            forms += [hex(int(d)), "0x%08x" % int(d)]
            if int(d) > 0xffff:     # a colour: 0xAARRGGBB reads better
                forms.insert(0, "0x%08x" % int(d))
        if self.type.startswith("Enum"):
            m = re.match(r'-?\d+, "(.*)"$', d)
            forms = [m.group(1)] if m else forms
        if self.type in ("Float", "Double"):
            try:
                v = float(d)
                forms += ["%g" % v, str(v)]
            except ValueError:
                pass
        return forms


def properties(text):
    props = {}
    section = text.split("Element Properties:", 1)
    if len(section) < 2:
        return props
    cur = None
    for line in section[1].splitlines():
        m = re.match(r"^  ([a-z][a-z0-9-]*)\s*: (.*)$", line)
        if m:
            cur = Prop(m.group(1), m.group(2).strip())
            props[cur.name] = cur
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("flags:"):
            cur.flags = s[len("flags:"):].strip()
        elif not cur.type and s.startswith("Default: ") and cur.default is None:
            # An array's default comes before its type.
            cur.default = re.sub(r"\(\w+\)", "", s[len("Default: "):].strip().strip('"'))
            cur.default = re.sub(r"\s+", " ", cur.default).replace("< ", "<").replace(" >", ">")
            cur.default = cur.default.replace("<>", "<>")
        elif not cur.type and s:
            m = re.match(r'^GstValueArray of GValues of type "g(\w+)"$', s)
            if m:
                cur.type = f"GstValueArray of {m.group(1)}s"
                continue
            m = re.match(r'^(Enum|Flags) "(\S+)" Default: (.*)$', s)
            if m:
                cur.type = f"{m.group(1)} {m.group(2)}"
                cur.default = m.group(3).strip()
                continue
            m = re.match(r"^([A-Za-z ]+?)\.(?: Range: (.*?))?(?: Default: (.*))?$", s)
            if m:
                cur.type = m.group(1)
                if m.group(2):
                    cur.type += " (" + re.sub(r"\s+", " ", m.group(2).strip()) + ")"
                if m.group(3) is not None:
                    cur.default = m.group(3).strip().strip('"')
            else:
                cur.type = s
        elif cur.type.startswith(("Enum", "Flags")):
            m = re.match(r"^\((-?\d+)\): (\S+)\s+- (.*)$", s)
            if m:
                cur.nicks.append((m.group(2), m.group(3)))
    return props


def formats(text):
    fmts = []
    for m in re.finditer(r"format: (\{[^}]*\}|\(string\)\S+)", text):
        for f in re.findall(r"\(string\)([A-Za-z0-9_]+)", m.group(1)):
            if f not in fmts:
                fmts.append(f)
    return fmts


def changeable(flags):
    if "writable" not in flags:
        state = "read-only"
    elif "PLAYING" in flags:
        state = "any state"
    elif "NULL or READY" in flags:
        state = "NULL/READY"
    else:
        state = "not stated"
    return state + (", controllable" if "controllable" in flags else "")


def plain(text):
    """Text as compared: without backticks, whitespace collapsed, no final
    full stop."""
    return re.sub(r"\s+", " ", text.replace("`", "")).strip().rstrip(".")


def describe(p):
    """The description cell --generate writes."""
    blurb = p.blurb
    if p.nicks:
        blurb += ": " + "; ".join(f"`{n}` {d}" for n, d in p.nicks)
    return blurb


def generated_row(name, p):
    d = p.default_forms()[0] if p.default_forms() else ""
    return f"| `{name}` | {p.type} | `{d}` | {changeable(p.flags)} | {describe(p)} |"


def check_row(el, name, p, cells, generated, errors):
    """The description and changeable cells of a row against gst-inspect."""
    state = cells[3] if len(cells) > 3 else ""
    desc = cells[4] if len(cells) > 4 else ""
    want_state = changeable(p.flags).split(",")[0]
    if want_state not in state:
        errors.append(f"{el}: '{name}' is {changeable(p.flags)!r} in "
                      f"gst-inspect-1.0, the page says {state!r}")
    if ("controllable" in p.flags) != ("controllable" in state):
        errors.append(f"{el}: '{name}' is "
                      f"{'' if 'controllable' in p.flags else 'not '}"
                      f"controllable in gst-inspect-1.0, the page says {state!r}")
    want = plain(describe(p) if generated else p.blurb)
    if (plain(desc) != want) if generated else not plain(desc).startswith(want):
        errors.append(f"{el}: '{name}' description differs from "
                      f"gst-inspect-1.0's:\n    page:    {plain(desc)!r}\n"
                      f"    inspect: {want!r}")


def row_cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def check(docs):
    errors = []
    index = open(os.path.join(docs, "index.md")).read() if os.path.exists(
        os.path.join(docs, "index.md")) else ""
    for el in elements():
        text = inspect(el)
        props = properties(text)
        if not props:
            errors.append(f"{el}: gst-inspect-1.0 shows no properties")
        page_path = os.path.join(docs, "elements", el + ".md")
        if not os.path.exists(page_path):
            errors.append(f"{el}: no page {page_path} "
                          f"(start one with: {sys.argv[0]} --generate {el})")
            continue
        if f"elements/{el}.md" not in index:
            errors.append(f"{el}: docs/index.md does not link elements/{el}.md")
        page = open(page_path).read()
        generated = GENERATED_MARK in page
        rows = {}
        for line in page.splitlines():
            m = re.match(r"^\|\s*`([a-z][a-z0-9-]*)`\s*\|", line)
            if m:
                rows.setdefault(m.group(1), line)
        for name, p in props.items():
            if name in INHERITED_IGNORED:
                continue
            row = rows.get(name)
            if row is None:
                errors.append(f"{el}: property '{name}' is not documented "
                              f"(no row | `{name}` | in {page_path})")
                continue
            cells = row_cells(row)
            default_cell = cells[2] if len(cells) > 2 else ""
            forms = p.default_forms()
            if forms and not any(f.lower() in default_cell.lower() for f in forms):
                errors.append(f"{el}: '{name}' default is {forms[0]!r} in "
                              f"gst-inspect-1.0, the page says {default_cell!r}")
            for nick, _ in p.nicks:
                if not re.search(r"(?<![a-z0-9-])" + re.escape(nick) + r"(?![a-z0-9-])", row):
                    errors.append(f"{el}: '{name}' value '{nick}' is not "
                                  f"named in its row")
            check_row(el, name, p, cells, generated, errors)
        for name, row in rows.items():
            # A row of a properties table (5 columns) that no property backs.
            if name not in props and len(row_cells(row)) >= 5:
                errors.append(f"{el}: the page documents '{name}', "
                              f"which is no property of the element")
        for f in formats(text):
            if f"`{f}`" not in page:
                errors.append(f"{el}: caps format {f} is not mentioned "
                              f"(as `{f}`) in {page_path}")
        print(f"{el}: {len(props) - len(INHERITED_IGNORED & set(props))} "
              f"properties, {len(formats(text))} formats checked")
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


def generate(el):
    text = inspect(el)
    long_name = re.search(r"Long-name\s+(.*)", text).group(1)
    desc = re.search(r"Description\s+(.*)", text).group(1)
    print(f"# {el}\n\n{long_name}: {desc}\n")
    print("## Properties\n")
    print("\n".join(table(text)))
    print("\n## Caps\n")
    print(", ".join(f"`{f}`" for f in formats(text)))


def table(text):
    lines = ["| property | type | default | changeable | description |",
             "|---|---|---|---|---|"]
    for name, p in properties(text).items():
        if name not in INHERITED_IGNORED:
            lines.append(generated_row(name, p))
    return lines


def update(docs):
    """Rewrites the properties table of each page that says it is
    generated; the rest of the page stays as written."""
    for el in elements():
        path = os.path.join(docs, "elements", el + ".md")
        if not os.path.exists(path):
            continue
        lines = open(path).read().split("\n")
        if GENERATED_MARK not in "\n".join(lines):
            print(f"{el}: {path} is written by hand, not updated")
            continue
        start = lines.index("| property | type | default | changeable | description |")
        end = start
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        lines[start:end] = table(inspect(el))
        open(path, "w").write("\n".join(lines))
        print(f"{el}: {path} updated")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--generate":
        generate(sys.argv[2])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--update":
        update(sys.argv[2])
        return 0
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    return check(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
