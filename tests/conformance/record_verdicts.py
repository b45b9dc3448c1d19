#!/usr/bin/env python3
"""Records Apache Spark 4.3's verdict on each statement of queries.sql into verdicts.txt.

queries.sql holds one statement per line (an unterminated string only on the last line: Spark's
splitter reads on to the end of the file); verdicts.txt gets one line per statement,
`accepted` or `rejected`, in the same order. Run from the repository root:

    python3 -m venv ~/.venvs/spark && ~/.venvs/spark/bin/pip install pyspark==4.3.0
    ~/.venvs/spark/bin/python tests/conformance/record_verdicts.py TOOL

TOOL is a Python script that runs Spark's own parser over a .sql file and prints one JSON line
per statement; the other scripts here take it too.
"""
import json
import subprocess
import sys
from pathlib import Path

here = Path(__file__).parent
tool = sys.argv[1]
statements = (here / "queries.sql").read_text(encoding="utf-8").splitlines()
out = subprocess.run([sys.executable, tool, str(here / "queries.sql")], capture_output=True, text=True, check=True)
records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
if len(records) != len(statements):
    sys.exit(f"{len(records)} verdicts for {len(statements)} statements: keep one statement per line, no comments")
(here / "verdicts.txt").write_text("".join("accepted\n" if r["ok"] else "rejected\n" for r in records))
print(f"{sum(r['ok'] for r in records)} accepted, {sum(not r['ok'] for r in records)} rejected")
