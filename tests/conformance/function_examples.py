#!/usr/bin/env python3
"""Judges the examples of Spark's built-in functions with Apache Spark 4.3 and pipeline-sql.

Each built-in function of Spark documents itself with example queries (`> SELECT ...;`, as
`DESCRIBE FUNCTION EXTENDED` shows them): about 1,300 statements by Spark's own authors, with
every special form of call (`trim(BOTH ...)`, `extract`, `overlay`, WITHIN GROUP, lambdas,
intervals, inline tables). They are read from the Spark that pyspark installs, and none is
stored here. The ones the two parsers judge differently are printed, with the tally on stderr.
`mutants.py TOOL SEED COUNT --functions` makes its small changes to these statements instead of
to queries.sql. Run from the repository root, after `cargo build --all-features --examples`:

    ~/.venvs/spark/bin/python tests/conformance/function_examples.py TOOL
"""
import os
import sys


def function_examples():
    """The query statements of every built-in function's examples, one line each, in `;`."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").appName("function-examples")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("OFF")
    registry = spark._jvm.org.apache.spark.sql.catalyst.analysis.FunctionRegistry.builtin()
    names = registry.listFunction().iterator()
    statements = []
    while names.hasNext():
        info = registry.lookupFunction(names.next())
        if info.isDefined():
            statements += example_statements(info.get().getExamples() or "")
    spark.stop()
    # SET lines configure the examples after them; they are no queries.
    queries = [s for s in statements if not s.upper().startswith("SET ")]
    return list(dict.fromkeys(queries))


def example_statements(examples):
    """The statements of one function's examples: each starts at `>` and ends with `;`, maybe
    lines later; the lines of results between them are left out."""
    statements, current = [], None
    for line in examples.splitlines():
        text = line.strip()
        if text.startswith(">"):
            current = text[1:].strip()
        elif current is not None and text:
            current += " " + text
        if current is not None and current.endswith(";"):
            # A `;` or a comment inside would change how the statements split.
            if current.count(";") == 1 and "--" not in current and "/*" not in current:
                statements.append(current)
            current = None
    return statements


if __name__ == "__main__":
    from judge import judge

    judge(sys.argv[1], function_examples())
