"""Judges statements with Apache Spark 4.3 and pipeline-sql, and prints where they differ.

Shared by mutants.py and generate.py, with their common arguments and Spark's keywords. Needs `cargo build --all-features --examples` first, and
runs from the repository root.
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

here = Path(__file__).parent
# All of Spark's keywords (most are names wherever a name stands).
spark_keywords = (here / "spark_keywords.txt").read_text(encoding="utf-8").splitlines()[1].split()


def arguments(default_count):
    """The command line's Spark parser tool, random seed and statement count (flags, such as
    mutants.py's `--functions`, left out)."""
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    count = int(args[2]) if len(args) > 2 else default_count
    return args[0], int(args[1]), count


def judge(tool, statements):
    """Prints each statement the two parsers judge differently, with both verdicts, and the tally
    on stderr. `statements` end in `;`, one per line, without comments or other `;`."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as file:
        file.write("\n".join(statements) + "\n")
    spark = subprocess.run([sys.executable, tool, file.name], capture_output=True, text=True)
    verdicts = [json.loads(line) for line in spark.stdout.splitlines() if line.strip()]
    if len(verdicts) != len(statements):
        sys.exit(f"{len(verdicts)} verdicts from Spark for {len(statements)} statements")
    ours = subprocess.run(["target/debug/examples/parse_file", file.name], capture_output=True, text=True)
    rejected = {}
    for line in ours.stdout.splitlines():
        found = re.match(re.escape(file.name) + r":(\d+):\d+: (.*)", line)
        if found:
            rejected.setdefault(int(found.group(1)), found.group(2))
    Path(file.name).unlink()

    tally = {"both accept": 0, "both reject": 0, "Spark only": 0, "pipeline-sql only": 0}
    for number, (statement, verdict) in enumerate(zip(statements, verdicts), start=1):
        spark_ok, ours_ok = verdict["ok"], number not in rejected
        if spark_ok == ours_ok:
            tally["both accept" if spark_ok else "both reject"] += 1
            continue
        tally["Spark only" if spark_ok else "pipeline-sql only"] += 1
        print(("accepted by Spark only: " if spark_ok else "accepted by pipeline-sql only: ") + statement)
        print("    Spark: " + verdict.get("error", "accepted")[:200])
        print("    pipeline-sql: " + rejected.get(number, "accepted")[:200])
    print(", ".join(f"{name} {n}" for name, n in tally.items()), file=sys.stderr)
