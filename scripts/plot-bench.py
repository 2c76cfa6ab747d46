#!/usr/bin/python3
"""Renders a throughput plot (docs/bench/: runs 2 and 4) from a benchmark report.

  scripts/plot-bench.py BENCH.md [-o OUT.png]

BENCH.md is what tests/bench/run-bench.sh writes ($OUT/bench.md): the
"Frames through each implementation" table (one row per case and
implementation) and, when the run had a GPU, the "Frame rate bounds" table.
The plot has one group of bars per case, one bar per implementation
(frames/s, log scale), and the case's transfer bound (overlapped, shared
link) as a dashed line, so each bar reads as a fraction of what the PCIe
link allows. Passthrough cases (same caps in and out: nothing is converted)
are left out.

A report of tests/bench/run-elements.sh (its "| group | case | ..." table:
every element beside its CPU peers) is plotted too, one bar per row,
grouped as in the table, texel elements and peers in two colours; with
--both-rate GB/s (the both-directions-at-once rate texel-bandwidth printed
in the same run) each group gets its shared-link transfer bound, computed
from its input and output frames.

  scripts/plot-bench.py docs/bench/h100-elements-run4.md --both-rate 97.4 \
      -o docs/performance-elements.png

Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import re
import sys


def table_rows(text, heading, header=True):
    """Rows (lists of cells) of the first markdown table after @heading,
    without its header row (@header: the table has one after @heading; the
    header itself may be the @heading)."""
    start = text.find(heading)
    if start < 0:
        return []
    rows = []
    in_table = False
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            in_table = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif in_table:
            break
    return rows[1:] if header else rows


def parse_report(text):
    """(cases in order, {case: [(implementation, fps)]}, {case: bound})."""
    cases, results, bounds = [], {}, {}
    for row in table_rows(text, "## Frames through each implementation"):
        case, implementation, fps = row[0], row[1].strip("`"), float(row[3])
        if case not in results:
            cases.append(case)
            results[case] = []
        results[case].append((implementation, fps))
    for row in table_rows(text, "## Frame rate bounds"):
        # case | bytes in | bytes out | H2D | D2H | overlapped | shared | zc
        bounds[row[0]] = float(row[6])
    return cases, results, bounds


def is_passthrough(case):
    m = re.fullmatch(r"(\S+ \d+x\d+) -> (\S+ \d+x\d+)", case)
    return bool(m) and m.group(1) == m.group(2)


def plot(cases, results, bounds, title, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    implementations = []
    for case in cases:
        for implementation, _ in results[case]:
            if implementation not in implementations:
                implementations.append(implementation)
    n = len(implementations)
    width = 0.8 / n
    fig, ax = plt.subplots(figsize=(11, 5.5), dpi=110)
    colors = plt.get_cmap("tab10")
    for i, implementation in enumerate(implementations):
        xs, ys = [], []
        for c, case in enumerate(cases):
            for name, fps in results[case]:
                if name == implementation:
                    xs.append(c - 0.4 + width * (i + 0.5))
                    ys.append(fps)
        bars = ax.bar(xs, ys, width, label=implementation, color=colors(i))
        ax.bar_label(bars, labels=[f"{y:.0f}" for y in ys], fontsize=7,
                     rotation=90, padding=2)
    for c, case in enumerate(cases):
        if case in bounds:
            ax.hlines(bounds[case], c - 0.45, c + 0.45, colors="black",
                      linestyles="dashed", linewidth=1.2,
                      label="PCIe transfer bound" if c == 0 else None)
    ax.set_yscale("log")
    ax.set_ylabel("frames/s (log scale)")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([case.replace(" -> ", "\n-> ") for case in cases],
                       fontsize=9)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16),
              ncol=3, frameon=False)
    ax.grid(axis="y", which="major", alpha=0.3)
    ax.set_ylim(1, max(max(f for _, f in results[c]) for c in cases) * 4)
    fig.tight_layout()
    fig.savefig(out, format="png")


# Bytes per pixel of the formats the element cases use.
BYTES_PER_PIXEL = {"NV12": 1.5, "NV21": 1.5, "I420": 1.5, "YV12": 1.5,
                   "YUY2": 2, "UYVY": 2, "RGBA": 4, "BGRA": 4, "RGBx": 4,
                   "BGRx": 4, "ARGB": 4, "ABGR": 4, "RGB": 3, "BGR": 3,
                   "GRAY8": 1, "P010_10LE": 3}


def frame_bytes(video):
    """Bytes of a FORMAT:WxH frame."""
    fmt, size = video.split(":")
    w, h = (int(v) for v in size.split("x"))
    return BYTES_PER_PIXEL[fmt] * w * h


def parse_elements(text):
    """[(group, fragment, fps, in, out)] of a run-elements.sh table."""
    rows = []
    for row in table_rows(text, "| group | case |", header=False):
        m = re.fullmatch(r"`(.*)` (\S+) -> (\S+)", row[1])
        if not m or not re.fullmatch(r"[0-9.]+", row[2]):
            continue  # a case that failed or was not installed
        rows.append((row[0], m.group(1), float(row[2]), m.group(2),
                     m.group(3)))
    return rows


def short_label(fragment):
    """The fragment's elements with their first setting each."""
    parts = []
    for element in fragment.split("!"):
        words = element.split()
        parts.append(" ".join(words[:2]))
    return " !\n".join(parts)


def plot_elements(rows, both_rate, title, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12, 6), dpi=110)
    x, xs, labels, group_span = 0.0, [], [], {}
    for group, fragment, fps, vin, vout in rows:
        if group not in group_span and group_span:
            x += 0.8  # a gap between groups
        span = group_span.setdefault(group, [x, x, vin, vout])
        span[1] = x
        texel = fragment.split()[0].startswith("texel")
        bar = ax.bar([x], [fps], 0.8, color="tab:blue" if texel else
                     "tab:orange")
        ax.bar_label(bar, labels=[f"{fps:.0f}"], fontsize=7, padding=2)
        xs.append(x)
        labels.append(short_label(fragment))
        x += 1
    for group, (x0, x1, vin, vout) in group_span.items():
        ax.text((x0 + x1) / 2, 1.4, group, ha="center", fontsize=9,
                fontweight="bold")
        if both_rate:
            bound = both_rate * 1e9 / (frame_bytes(vin) + frame_bytes(vout))
            ax.hlines(bound, x0 - 0.45, x1 + 0.45, colors="black",
                      linestyles="dashed", linewidth=1.2)
    ax.set_yscale("log")
    ax.set_ylabel("frames/s (log scale)")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, fontsize=6.5, rotation=60, ha="right")
    ax.set_title(title)
    handles = [plt.Rectangle((0, 0), 1, 1, color="tab:blue"),
               plt.Rectangle((0, 0), 1, 1, color="tab:orange")]
    names = ["texel elements (GPU)", "GStreamer CPU elements"]
    if both_rate:
        handles.append(plt.Line2D([], [], color="black", linestyle="dashed"))
        names.append("PCIe transfer bound (in + out, both directions)")
    ax.legend(handles, names, fontsize=8, loc="upper right")
    ax.grid(axis="y", which="major", alpha=0.3)
    ax.set_ylim(1, max(r[2] for r in rows) * 4)
    fig.tight_layout()
    fig.savefig(out, format="png")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report")
    parser.add_argument("-o", "--output", default="docs/performance.png")
    parser.add_argument("--both-rate", type=float, default=0.0,
                        help="GB/s both directions at once (element reports)")
    args = parser.parse_args()
    text = open(args.report, encoding="utf-8").read()
    gpu = re.search(r"GPU 0: ([^(]+)", text)
    on = f" ({gpu.group(1).strip()})" if gpu else ""
    elements = parse_elements(text)
    if elements:
        plot_elements(elements, args.both_rate,
                      "Every element beside its CPU peers, frames/s, system "
                      "memory in and out" + on, args.output)
        print(f"{args.output}: {len(elements)} bars")
        return
    cases, results, bounds = parse_report(text)
    cases = [c for c in cases if not is_passthrough(c)]
    if not cases:
        sys.exit(f"{args.report}: no 'Frames through each implementation' "
                 "or element table")
    plot(cases, results, bounds, "Frames/s, system memory in and out" + on,
         args.output)
    print(f"{args.output}: {len(cases)} cases, "
          f"{sum(len(results[c]) for c in cases)} bars")


if __name__ == "__main__":
    main()
