#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`pith tex` against tests/latex/pithtex.py for every seed record, and its refusal of a bad record."""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    source = Path(args.source)
    sys.path.insert(0, str(source / "tests" / "latex"))
    import pithtex

    passed = failed = 0
    for seed in sorted((source / "tests" / "vectors").glob("seed-*.json")):
        doc = json.loads(seed.read_text(encoding="utf-8"))
        if doc.get("state_type") == "pith_open_graph_state":
            current = doc["current"]
            record = current["canonical_record"]
            receipt = current["record_created"]["payload"]["receipt"]
            title = current["graph_snapshots"][0]["payload"]["graph_snapshot"]["paper"]["title"]
        else:
            record, receipt, title = doc["canonical_record"], doc["receipt"], doc["paper"]["title"]
        want = pithtex.pith_tex(record, receipt, title)
        got = subprocess.run([args.pith, "tex", str(seed)], capture_output=True, text=True)
        if got.returncode == 0 and got.stdout == want:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {seed.name}: exit {got.returncode}\n--- pithtex.py\n{want}--- pith tex\n{got.stdout}{got.stderr}")

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as bad:
        doc = json.loads((source / "tests" / "vectors" / "seed-000-pith_number_record.json").read_text())
        doc["canonical_sha256"] = "0" * 64
        json.dump(doc, bad)
    got = subprocess.run([args.pith, "tex", bad.name], capture_output=True, text=True)
    Path(bad.name).unlink()
    if got.returncode != 0 and got.stdout == "" and "does not recompute" in got.stderr:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: a record whose hash does not recompute was not refused: exit {got.returncode} {got.stderr}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
