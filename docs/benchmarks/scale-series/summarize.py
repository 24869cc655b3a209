#!/usr/bin/env python3
"""Summarizes scale-series compare runs (run.sh) from the engines' logs.

usage: summarize.py NUM FACTOR=DIR [FACTOR=DIR ...] [--csv OUT.csv]
Prints, per factor and engine: fill ops/s, settle seconds, fill+settle ops/s, flush and compaction
MiB (fill + settle), write-amp at rest (per flushed byte and per user byte), space-amp, the levels at
rest and the store depth (L0 plus every non-empty level below it), readrandom ops/s, tables/get,
data-block reads per get; ratios to LEVELED. --csv writes scheme,factor,depth,wa_user (table bytes
written per user byte, at rest) for WriteAmpChart.java.
"""
import re
import sys

ENGINES = [("LEVELED", "bellows-LEVELED-NONE.log"), ("FLSM", "bellows-FLSM-NONE.log"),
           ("LSM_TRIE", "bellows-LSM_TRIE-NONE.log"), ("RocksDB", "rocksdb.log")]
MIB = 1024.0 * 1024.0


def parse(path, num):
    try:
        text = open(path, encoding="utf-8").read()
    except FileNotFoundError:
        return "absent"
    row = lambda w: re.search(r"^" + w + r"\s+(\d+)\s+([\d.]+)\s+([\d.]+)", text, re.M)
    fill, read = row("fillrandom"), row("readrandom")
    eng = re.findall(r"engine: write-amp (\S+), .*?tables/get (\S+), stalls (\d+) \((\d+) ms\), flushes \d+ \(([\d.]+) MiB\),"
                     r" compactions \d+ \(([\d.]+) MiB written\)", text)
    settle = re.search(r"settled: compaction idle after ([\d.]+) s", text)
    rest = re.search(r"at rest: flushes \d+ \(([\d.]+) MiB\), compactions \d+ \(([\d.]+) MiB written\) while settling;"
                     r" since opened: write-amp (\S+), space-amp (\S+) \(last-level (\S+)\)\n    levels: (.*)", text)
    blocks = re.search(r"disk reads per get: data blocks ([\d.]+), filter blocks ([\d.]+)", text)
    if not (fill and read and settle and rest and blocks):
        return None
    levels = [(int(m[0]), float(m[2])) for m in re.findall(r"L(\d+) (\d+) tables ([\d.]+) MiB", rest.group(6))]
    flush = float(eng[0][4]) + float(rest.group(1))
    compaction = float(eng[0][5]) + float(rest.group(2))
    user = num * 116 / MIB
    fill_s, settle_s = float(fill.group(2)), float(settle.group(1))
    return {
        "fill": float(fill.group(3)), "fill_s": fill_s, "stall_s": int(eng[0][3]) / 1000, "settle_s": settle_s,
        "fill_settle": num / (fill_s + settle_s), "flush": flush, "compaction": compaction,
        "wa": (flush + compaction) / flush, "wa_user": (flush + compaction) / user, "flush_user": flush / user,
        "samp": rest.group(4), "samp_last": rest.group(5), "levels": rest.group(6),
        "depth": 1 + len([lv for lv, mib in levels if lv > 0 and mib > 0]),
        "read": float(read.group(3)), "tpg": eng[1][1], "blocks": float(blocks.group(1)),
    }


def main():
    args = sys.argv[1:]
    csv = None
    if "--csv" in args:
        i = args.index("--csv")
        csv = args[i + 1]
        del args[i:i + 2]
    num = int(args[0])
    rows = []
    for spec in args[1:]:
        factor, d = spec.split("=", 1)
        res = {name: parse(d + "/" + log, num) for name, log in ENGINES}
        # An engine left out of a run (no log) gets no column.
        engines = [(n, log) for n, log in ENGINES if res[n] != "absent"]
        base = res["LEVELED"]
        failed = [n for n, _ in engines if res[n] is None]
        for n in failed:
            del res[n]
        for n, _ in ENGINES:
            if res.get(n) == "absent":
                del res[n]
        print(f"\n## factor {factor}, {num} entries ({d})")
        print("| | " + " | ".join(n for n, _ in engines) + " |")
        print("| --- " * (len(engines) + 1) + "|")

        def line(label, fmt, key, ratio=None):
            cells = []
            for n, _ in engines:
                if n in failed:
                    cells.append("failed")
                    continue
                v = res[n][key]
                c = fmt.format(v) if not isinstance(v, str) else v
                if ratio and n != "LEVELED":
                    c += f" ({v / base[key]:.2f}x)"
                cells.append(c)
            print(f"| {label} | " + " | ".join(cells) + " |")

        line("fillrandom ops/s", "{:,.0f}", "fill", True)
        line("fill s", "{:.1f}", "fill_s")
        line("stalled s during fill", "{:.1f}", "stall_s")
        line("settle s", "{:.1f}", "settle_s")
        line("fill+settle ops/s", "{:,.0f}", "fill_settle", True)
        line("flush MiB", "{:,.1f}", "flush")
        line("flush bytes per user byte", "{:.2f}", "flush_user")
        line("compaction MiB", "{:,.1f}", "compaction")
        line("write-amp at rest (per flushed byte)", "{:.2f}", "wa", True)
        line("table bytes written per user byte", "{:.2f}", "wa_user", True)
        line("space-amp (over user data)", "{}", "samp")
        line("space-amp last-level", "{}", "samp_last")
        line("depth", "{}", "depth")
        line("readrandom ops/s", "{:,.0f}", "read", True)
        line("tables/get", "{}", "tpg")
        line("data-block reads per get", "{:.3f}", "blocks")
        for n in res:
            print(f"{n} at rest: {res[n]['levels']}")
            rows.append(f"{n},{factor},{res[n]['depth']},{res[n]['wa_user']:.4f}")
    if csv:
        with open(csv, "w", encoding="utf-8") as f:
            f.write("scheme,factor,depth,wa_user\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
