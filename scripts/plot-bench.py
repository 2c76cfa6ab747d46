#!/usr/bin/python3
"""Renders the throughput plot of docs/performance.md from a benchmark report.

  scripts/plot-bench.py BENCH.md [-o OUT.png]

BENCH.md is what tests/bench/run-bench.sh writes ($OUT/bench.md): the
"Frames through each implementation" table (one row per case and
implementation) and, when the run had a GPU, the "Frame rate bounds" table.
The plot has one group of bars per case, one bar per implementation
(frames/s, log scale), and the case's transfer bound (overlapped, shared
link) as a dashed line, so each bar reads as a fraction of what the PCIe
link allows. Passthrough cases (same caps in and out: nothing is converted)
are left out.

Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import re
import sys


def table_rows(text, heading):
    """Rows (lists of cells) of the first markdown table after @heading."""
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
    return rows[1:]  # without the header


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report")
    parser.add_argument("-o", "--output", default="docs/performance.png")
    args = parser.parse_args()
    text = open(args.report, encoding="utf-8").read()
    cases, results, bounds = parse_report(text)
    cases = [c for c in cases if not is_passthrough(c)]
    if not cases:
        sys.exit(f"{args.report}: no 'Frames through each implementation' table")
    gpu = re.search(r"GPU 0: ([^(]+)", text)
    title = "Frames/s, system memory in and out" + (
        f" ({gpu.group(1).strip()})" if gpu else "")
    plot(cases, results, bounds, title, args.output)
    print(f"{args.output}: {len(cases)} cases, "
          f"{sum(len(results[c]) for c in cases)} bars")


if __name__ == "__main__":
    main()
