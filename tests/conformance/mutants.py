#!/usr/bin/env python3
"""Looks for disagreements with Apache Spark 4.3 on statements near the corpus.

Each mutant is a statement of queries.sql with one small random change to its tokens (one
dropped, doubled, swapped with the next, replaced by or preceded by a keyword or a symbol, a
short run dropped or doubled). Spark and pipeline-sql judge every mutant; the ones they judge
differently are printed with both verdicts, to be read and, where pipeline-sql is wrong, fixed
and added to queries.sql. Most mutants are invalid, so this mostly tests what is rejected and
why, and keywords where names stand. Run from the repository root, after
`cargo build --all-features --examples`:

    ~/.venvs/spark/bin/python tests/conformance/mutants.py TOOL SEED [COUNT] [--functions]

With `--functions`, the statements changed are the examples of Spark's built-in functions
(see function_examples.py) instead.
"""
import random
import re
import sys
from pathlib import Path

from judge import arguments, judge, spark_keywords

here = Path(__file__).parent
tool, seed, count = arguments(3000)
rng = random.Random(seed)

if "--functions" in sys.argv:
    # The examples of Spark's built-in functions (see function_examples.py).
    from function_examples import function_examples

    corpus = function_examples()
else:
    # The last line is an unterminated string, which would swallow the mutants after it.
    corpus = (here / "queries.sql").read_text(encoding="utf-8").splitlines()[:-1]
token = re.compile(
    r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[A-Za-z]*"
    r"|\.\d+|[A-Za-z_]\w*|\|>|::|<=>|<=|>=|<>|!=|=>|->|\|\||\S"
)
keywords = """SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET UNION ALL DISTINCT INTERSECT EXCEPT
MINUS JOIN ON USING LEFT RIGHT FULL OUTER INNER CROSS NATURAL SEMI ANTI LATERAL VIEW AS WITH WINDOW
OVER PARTITION ROWS RANGE BETWEEN AND OR NOT IN IS NULL TRUE FALSE CASE WHEN THEN ELSE END CAST
INTERVAL TABLE VALUES PIVOT UNPIVOT FOR QUALIFY SORT CLUSTER DISTRIBUTE TABLESAMPLE FILTER IGNORE
RESPECT NULLS FIRST LAST ASC DESC EXISTS LIKE ILIKE RLIKE ESCAPE ANY SOME ROLLUP CUBE GROUPING SETS
TRANSFORM MAP REDUCE STRUCT ARRAY DAY HOUR YEAR TO TIMESTAMP DATE EXTRACT POSITION TRIM SUBSTRING
LEADING COLLATE STREAM CURRENT ROW UNBOUNDED PRECEDING FOLLOWING WATERMARK DELAY IDENTIFIER
TRY_CAST PERCENT SYSTEM_TIME VERSION RECURSIVE AGGREGATE EXTEND SET DROP""".split()
symbols = list("(),.*+-/%<>=[]{}:|&^~!?") + ["|>", "::", "=>", "->", "||", "<=>"]


def keyword():
    # Half of the words put in are any of Spark's keywords.
    return rng.choice(keywords if rng.random() < 0.5 else spark_keywords)


def mutate(toks):
    i = rng.randrange(len(toks))
    kind = rng.randrange(8)
    if kind == 0:
        del toks[i]
    elif kind == 1:
        toks.insert(i, rng.choice(toks))
    elif kind == 2 and i + 1 < len(toks):
        toks[i], toks[i + 1] = toks[i + 1], toks[i]
    elif kind == 3:
        toks.insert(i, keyword())
    elif kind == 4:
        toks[i] = keyword()
    elif kind == 5:
        toks.insert(i, rng.choice(symbols))
    elif kind == 6:
        del toks[i : i + rng.randrange(2, 4)]
    else:
        toks[i:i] = toks[i : i + rng.randrange(2, 5)]
    return " ".join(toks)


mutants = set()
while len(mutants) < count:
    toks = token.findall(rng.choice(corpus))
    if len(toks) < 3:
        continue
    mutant = mutate(toks).rstrip(";").rstrip()
    # Comments and a `;` inside would change how the statements split.
    if mutant and not re.search(r";|--|/\*|\*/", mutant) and mutant not in corpus:
        mutants.add(mutant + ";")
judge(tool, sorted(mutants))
