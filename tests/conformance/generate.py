#!/usr/bin/env python3
"""Looks for disagreements with Apache Spark 4.3 on queries far from the corpus.

Where mutants.py makes small changes to the corpus (and so mostly invalid statements), this
writes whole random queries from a grammar of Spark's query language: every kind of relation,
join, clause, set operation, pipe step, expression, literal and type, nested at random and
named at random, sometimes with a Spark keyword as a name. Most of them are valid, so this tests
mostly what must be accepted. Spark and pipeline-sql judge every query, and the ones they judge
differently are printed with both verdicts. Run from the repository root, after
`cargo build --all-features --examples`:

    ~/.venvs/spark/bin/python tests/conformance/generate.py TOOL SEED [COUNT]
"""
import random

from judge import arguments, judge, spark_keywords

tool, seed, count = arguments(2000)
rng = random.Random(seed)


def pick(*choices):
    return rng.choice(choices)


def maybe(text, chance=0.3):
    return text if rng.random() < chance else ""


def some(make, low=1, high=3, sep=", "):
    return sep.join(make() for _ in range(rng.randint(low, high)))


def name():
    """A name: mostly plain, sometimes back-quoted, sometimes any Spark keyword."""
    roll = rng.random()
    if roll < 0.12:
        return rng.choice(spark_keywords).lower()
    if roll < 0.17:
        return pick("`a b`", "`select`", "`x``y`", "`1a`")
    return pick("a", "b", "c", "id", "amount", "region", "ts", "v", "k", "x1", "_c", "col_2")


def table_name():
    return pick(name(), "t", "orders", "db." + name(), "cat.db.t", "IDENTIFIER('t')", "`my t`")


def alias(columns=True):
    text = pick("", "AS ", "") + name()
    if columns and rng.random() < 0.25:
        text += "(" + some(name) + ")"
    return text


def values_rows(width):
    """Rows of VALUES: each column of one kind, which Spark needs of an inline table."""
    kinds = [pick(("1", "-2", "30", "NULL"), ("'a'", "'b'", "NULL"), ("TRUE", "FALSE"), ("1.5D", "2.0D"),
                  ("DATE '2024-01-01'", "DATE '2024-02-01'")) for _ in range(width)]
    row = lambda: "(" + ", ".join(rng.choice(kind) for kind in kinds) + ")"
    return some(row, 1, 3)


class Query:
    """Random queries; `depth` bounds how far expressions and queries nest."""

    def __init__(self, depth):
        self.depth = depth

    def deeper(self, make, *args):
        self.depth -= 1
        try:
            return make(*args)
        finally:
            self.depth += 1

    # ---- types and literals ----

    def type(self):
        if self.depth > 0 and rng.random() < 0.25:
            return pick(
                lambda: f"ARRAY<{self.deeper(self.type)}>",
                lambda: f"MAP<STRING, {self.deeper(self.type)}>",
                lambda: "STRUCT<" + some(lambda: f"{name()}{pick(': ', ' ')}{self.deeper(self.type)}"
                                          + maybe(" NOT NULL", 0.1) + maybe(" COMMENT 'c'", 0.1)) + ">",
            )()
        return pick("INT", "BIGINT", "SMALLINT", "TINYINT", "STRING", "DOUBLE", "FLOAT", "BOOLEAN",
                    "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ", "BINARY", "DECIMAL(10, 2)",
                    "DECIMAL", "DEC(5)", "NUMERIC(3, 1)", "VARCHAR(10)", "CHAR(3)", "VARIANT", "LONG",
                    "INTEGER", "SHORT", "BYTE", "REAL", "INTERVAL DAY TO SECOND", "INTERVAL YEAR",
                    "INTERVAL MONTH", "INTERVAL HOUR TO MINUTE", "STRING COLLATE UTF8_LCASE", "VOID")

    def interval(self):
        # Units of one kind (year-month or day-time), each once.
        units = rng.sample(pick(("YEAR", "MONTH"), ("WEEK", "DAY", "HOUR", "MINUTE", "SECOND")), rng.randint(1, 2))
        value = lambda: pick("1", "-2", "3", "'4'")
        plural = lambda unit: unit + maybe("S", 0.3)
        return "INTERVAL " + pick(
            lambda: " ".join(f"{value()} {plural(unit)}" for unit in units),
            lambda: "'1-2' YEAR TO MONTH",
            lambda: "'1 2:03:04' DAY TO SECOND",
            lambda: "'2:03' HOUR TO MINUTE",
            lambda: "'10' DAY",
            lambda: "'1 day 2 hours'",
            lambda: "-'3' MONTH",
            lambda: "1.5 SECONDS",
        )()

    def literal(self):
        return pick(
            lambda: pick("0", "1", "42", "-7", "2147483648", "1L", "2S", "3Y", "1.5", "1.5D", "2.5F",
                         "1.25BD", "1e3", "1E-2", ".5", "5.", "0x1F"),
            lambda: pick("'s'", "'it''s'", '"q"', "'a\\tb'", "r'\\d+'", "'a' 'b'", "X'1F'"),
            lambda: pick("TRUE", "FALSE", "NULL"),
            lambda: pick("DATE '2024-01-01'", "TIMESTAMP '2024-01-01 10:00:00'", "TIMESTAMP_NTZ '2024-01-01'",
                         "TIMESTAMP_LTZ '2024-01-01'", "X'00ff'", "date'2020-1-1'"),
            self.interval,
        )()

    # ---- expressions ----

    def column(self):
        return pick(
            name, name, name,
            lambda: f"{name()}.{name()}",
            lambda: f"t.{name()}.{name()}",
        )()

    def window_spec(self):
        parts = []
        if rng.random() < 0.6:
            parts.append("PARTITION BY " + some(self.expr, 1, 2))
        if rng.random() < 0.7:
            parts.append("ORDER BY " + some(self.sort_item, 1, 2))
            if rng.random() < 0.5:
                bound = lambda: pick("UNBOUNDED PRECEDING", "CURRENT ROW", "1 PRECEDING", "2 FOLLOWING",
                                     "UNBOUNDED FOLLOWING", "INTERVAL 1 DAY PRECEDING")
                frame = pick("ROWS", "RANGE")
                parts.append(pick(f"{frame} {bound()}", f"{frame} BETWEEN {bound()} AND {bound()}"))
        return pick("(" + " ".join(parts) + ")", "(" + " ".join(parts) + ")", "(w)")

    def call(self):
        fn = pick("sum", "count", "max", "coalesce", "concat", "f", "db.f", "first", "last",
                  "array_agg", "upper", "nvl", "left", "right", "date_add", "year", "if", "struct")
        args = ""
        roll = rng.random()
        if roll < 0.1:
            args = "*" if fn == "count" else ""
        elif roll < 0.2:
            args = pick("DISTINCT ", "ALL ") + some(self.expr, 1, 2)
        elif roll < 0.3:
            args = some(lambda: f"{name()} => {self.expr()}", 1, 2)
        else:
            args = some(self.expr, 0, 3)
        text = f"{fn}({args})"
        if rng.random() < 0.15:
            text += pick(" IGNORE NULLS", " RESPECT NULLS")
        if rng.random() < 0.15:
            text += f" FILTER (WHERE {self.expr()})"
        if rng.random() < 0.25:
            text += " OVER " + pick("w", self.window_spec())
        return text

    def special_form(self):
        return pick(
            lambda: f"CASE WHEN {self.expr()} THEN {self.expr()}{maybe(' ELSE ' + self.expr())} END",
            lambda: f"CASE {self.expr()} WHEN {self.literal()} THEN {self.expr()} END",
            lambda: f"{pick('CAST', 'TRY_CAST')}({self.expr()} AS {self.type()})",
            lambda: f"{self.primary()}::{self.type()}",
            lambda: f"EXTRACT({pick('YEAR', 'MONTH', 'DAY', 'HOUR', 'DOW', 'week')} FROM {self.expr()})",
            lambda: f"POSITION({self.expr()} IN {self.expr()})",
            lambda: f"SUBSTRING({self.expr()} FROM {self.expr()}{maybe(' FOR 2')})",
            lambda: f"SUBSTR({self.expr()}, 1, 2)",
            lambda: f"TRIM({pick('BOTH', 'LEADING', 'TRAILING', '')} {maybe(chr(39) + 'x' + chr(39), 0.5)} FROM {self.expr()})",
            lambda: f"OVERLAY({self.expr()} PLACING {self.expr()} FROM 1{maybe(' FOR 2')})",
            lambda: f"transform({self.expr()}, x -> x + 1)",
            lambda: f"aggregate({self.expr()}, 0, (acc, x) -> acc + x, acc -> acc)",
            lambda: f"filter({self.expr()}, (x, i) -> x > i)",
            lambda: f"percentile_cont(0.5) WITHIN GROUP (ORDER BY {self.expr()})",
            lambda: f"listagg({self.expr()}, ',') WITHIN GROUP (ORDER BY {self.expr()} DESC)",
            lambda: f"ARRAY({some(self.expr, 0, 3)})",
            lambda: f"MAP({self.expr()}, {self.expr()})",
            lambda: f"STRUCT({some(lambda: self.expr() + maybe(' AS ' + name()), 1, 3)})",
            lambda: f"named_struct('a', {self.expr()})",
            lambda: f"({self.deeper(self.query)})",
            lambda: f"{self.column()}:{pick('a', 'a.b', '[0]', 'a[*].b', chr(91) + chr(39) + 'k' + chr(39) + chr(93))}",
            lambda: f"{self.primary()}[{self.expr()}]",
            lambda: f"({self.expr()}).{name()}",
            lambda: f"timestampadd({pick('HOUR', 'DAY', 'MONTH')}, 1, {self.expr()})",
            lambda: f"datediff({pick('DAY', 'WEEK')}, {self.expr()}, {self.expr()})",
            lambda: pick("CURRENT_DATE", "CURRENT_TIMESTAMP", "CURRENT_USER", "current_date()", "USER"),
            lambda: f"{self.primary()} COLLATE {pick('UTF8_LCASE', 'UNICODE_CI', 'UTF8_BINARY')}",
            lambda: f"{pick('?', ':p', ':amount')}",
            lambda: f"({self.expr()}, {self.expr()})",
            lambda: f"IDENTIFIER('f')({self.expr()})",
        )()

    def primary(self):
        if self.depth <= 0:
            return pick(self.column, self.literal)()
        roll = rng.random()
        if roll < 0.3:
            return self.column()
        if roll < 0.5:
            return self.literal()
        if roll < 0.7:
            return self.deeper(self.call)
        if roll < 0.78:
            return "(" + self.deeper(self.expr) + ")"
        return self.deeper(self.special_form)

    def predicate(self, left):
        no = maybe("NOT ", 0.3)
        return pick(
            lambda: f"{left} IS {no}{pick('NULL', 'TRUE', 'FALSE', 'UNKNOWN')}",
            lambda: f"{left} IS {no}DISTINCT FROM {self.value()}",
            lambda: f"{left} {no}BETWEEN {self.value()} AND {self.value()}",
            lambda: f"{left} {no}IN ({some(self.expr, 1, 3)})",
            lambda: f"{left} {no}IN ({self.deeper(self.query)})",
            lambda: f"{left} {no}{pick('LIKE', 'ILIKE', 'RLIKE', 'REGEXP')} {self.value()}",
            lambda: f"{left} {no}LIKE {pick('ANY', 'ALL', 'SOME')} ('a%', 'b%')",
            lambda: f"{left} LIKE 'a!%' ESCAPE '!'",
        )()

    def value(self):
        """An operand of arithmetic and comparisons (Spark's valueExpression)."""
        if self.depth <= 0 or rng.random() < 0.45:
            return self.primary()
        self.depth -= 1
        try:
            if rng.random() < 0.8:
                op = pick("+", "-", "*", "/", "%", "DIV", "||", "&", "|", "^", "=", "==", "<>", "!=",
                          "<", "<=", ">", ">=", "<=>")
                return f"{self.value()} {op} {self.value()}"
            return pick("-", "+", "~") + self.primary()
        finally:
            self.depth += 1

    def expr(self):
        """Any expression (Spark's booleanExpression)."""
        if self.depth <= 0 or rng.random() < 0.5:
            return self.value()
        self.depth -= 1
        try:
            roll = rng.random()
            if roll < 0.35:
                return f"{self.expr()} {pick('AND', 'OR')} {self.expr()}"
            if roll < 0.5:
                return pick("NOT ", "!") + self.expr()
            if roll < 0.55:
                return f"EXISTS ({self.deeper(self.query)})"
            return self.predicate(self.value())
        finally:
            self.depth += 1

    def sort_item(self):
        return self.expr() + maybe(pick(" ASC", " DESC")) + maybe(pick(" NULLS FIRST", " NULLS LAST"), 0.2)

    def select_item(self):
        roll = rng.random()
        if roll < 0.1:
            return pick("*", "t.*", f"* EXCEPT ({name()})", f"* EXCEPT ({name()}, {name()})")
        if roll < 0.15:
            return f"{self.expr()} AS ({name()}, {name()})"
        return self.expr() + maybe(pick(" AS ", " ") + name(), 0.4)

    # ---- relations ----

    def relation_primary(self):
        if self.depth <= 0:
            return table_name() + maybe(" " + alias(), 0.4)
        return pick(
            lambda: table_name() + maybe(" " + alias(), 0.4),
            lambda: table_name() + maybe(" " + alias(), 0.4),
            lambda: f"({self.deeper(self.query)})" + maybe(" " + alias(), 0.7),
            lambda: f"VALUES {values_rows(2)}" + maybe(" AS v(x, y)", 0.7),
            lambda: f"{pick('range', 'explode', 'inline', 'json_tuple')}({some(self.primary, 1, 2)})" + maybe(" " + alias(), 0.4),
            lambda: f"{table_name()} TABLESAMPLE ({pick('10 PERCENT', '5 ROWS', 'BUCKET 1 OUT OF 4', '1 PERCENT')})" + maybe(" " + alias(False), 0.3),
            lambda: f"{table_name()} {pick('VERSION', 'TIMESTAMP')} AS OF {pick('1', chr(39) + '2024-01-01' + chr(39))}",
            lambda: f"STREAM({table_name()})",
            lambda: f"STREAM {table_name()}" + maybe(" WITH (skipChangeCommits = true)", 0.3),
            lambda: f"{table_name()} PIVOT ({some(lambda: self.call() + maybe(' AS ' + name()), 1, 2)} FOR {name()} IN ({some(lambda: self.literal() + maybe(' ' + name(), 0.3), 1, 3)}))",
            lambda: f"{table_name()} UNPIVOT {pick('INCLUDE NULLS ', 'EXCLUDE NULLS ', '')}({name()} FOR {name()} IN ({some(name, 1, 3)}))",
            lambda: f"LATERAL ({self.deeper(self.query)})" + maybe(" " + alias(), 0.5),
            lambda: f"({self.deeper(self.relation)})",
        )()

    def relation(self):
        text = self.relation_primary()
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            kind = pick("JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "RIGHT JOIN", "FULL OUTER JOIN",
                        "LEFT SEMI JOIN", "LEFT ANTI JOIN", "SEMI JOIN", "ANTI JOIN", "CROSS JOIN",
                        "NATURAL JOIN", "NATURAL LEFT JOIN", ",")
            right = self.relation_primary()
            if kind in (",", "CROSS JOIN") or kind.startswith("NATURAL"):
                text += f" {kind} {right}"
            else:
                condition = pick(f" ON {self.expr()}", f" USING ({some(name, 1, 2)})", "")
                text += f" {kind} {right}{condition}"
        return text

    # ---- queries ----

    def group_by(self):
        return "GROUP BY " + pick(
            lambda: some(self.expr, 1, 3),
            lambda: "ALL",
            lambda: f"{pick('ROLLUP', 'CUBE')}({some(self.primary, 1, 3)})",
            lambda: f"GROUPING SETS (({some(self.primary, 1, 2)}), ())",
            lambda: f"{some(self.primary, 1, 2)} WITH {pick('ROLLUP', 'CUBE')}",
            lambda: f"{name()}, {pick('ROLLUP', 'CUBE')}({name()})",
        )()

    def select(self):
        text = "SELECT " + maybe("/*+ BROADCAST(t) */ ", 0.05) + maybe(pick("DISTINCT ", "ALL "), 0.15)
        text += some(self.select_item, 1, 4)
        if rng.random() < 0.9:
            text += " FROM " + some(self.relation, 1, 2)
            for _ in range(rng.choice((0, 0, 0, 1, 2))):
                text += f" LATERAL VIEW {maybe('OUTER ')}explode({self.primary()}) {name()}{maybe(' AS ' + name(), 0.6)}"
        if rng.random() < 0.4:
            text += " WHERE " + self.expr()
        if rng.random() < 0.3:
            text += " " + self.group_by()
            if rng.random() < 0.4:
                text += " HAVING " + self.expr()
        if rng.random() < 0.1:
            text += f" WINDOW w AS {self.window_spec().replace('(w ', '(').replace('(w)', '()')}"
        if rng.random() < 0.1:
            text += " QUALIFY " + self.expr()
        return text

    def body(self):
        if self.depth <= 0:
            return self.select()
        roll = rng.random()
        if roll < 0.6:
            return self.select()
        if roll < 0.72:
            op = pick("UNION", "UNION ALL", "UNION DISTINCT", "INTERSECT", "INTERSECT ALL", "EXCEPT",
                      "EXCEPT ALL", "MINUS")
            return f"{self.deeper(self.body)} {op} {self.deeper(self.body)}"
        if roll < 0.78:
            return f"({self.deeper(self.query)})"
        if roll < 0.84:
            return f"VALUES {values_rows(rng.randint(1, 2))}"
        if roll < 0.88:
            return f"TABLE {table_name()}"
        return f"FROM {self.relation()} SELECT {some(self.select_item, 1, 3)}" + maybe(f" WHERE {self.expr()}")

    def modifiers(self):
        text = ""
        roll = rng.random()
        if roll < 0.25:
            text += " ORDER BY " + some(self.sort_item, 1, 2)
        elif roll < 0.3:
            text += f" {pick('SORT', 'CLUSTER', 'DISTRIBUTE')} BY {some(self.primary, 1, 2)}"
        if rng.random() < 0.2:
            text += " LIMIT " + pick("10", "ALL", "1 + 1")
        if rng.random() < 0.08:
            text += " OFFSET 5"
        return text

    def pipe_step(self):
        return "|> " + pick(
            lambda: f"WHERE {self.expr()}",
            lambda: f"SELECT {some(self.select_item, 1, 3)}",
            lambda: f"EXTEND {some(lambda: self.expr() + ' AS ' + name(), 1, 2)}",
            lambda: f"SET {name()} = {self.expr()}",
            lambda: f"DROP {some(name, 1, 2)}",
            lambda: f"AS {name()}",
            lambda: f"AGGREGATE {some(lambda: self.call() + maybe(' AS ' + name()), 1, 2)}{maybe(' GROUP BY ' + name())}",
            lambda: f"ORDER BY {self.sort_item()}",
            lambda: "LIMIT 3",
            lambda: f"{pick('JOIN', 'LEFT JOIN', 'CROSS JOIN')} {self.relation_primary()}{maybe(' ON ' + self.expr(), 0.6)}",
            lambda: f"{pick('UNION ALL', 'INTERSECT', 'EXCEPT')} ({self.deeper(self.query)})",
            lambda: f"TABLESAMPLE (10 PERCENT)",
            lambda: f"PIVOT (sum({name()}) FOR {name()} IN (1, 2))",
        )()

    def query(self):
        text = ""
        if self.depth > 0 and rng.random() < 0.15:
            ctes = some(lambda: f"{name()}{maybe(' (' + some(name, 1, 2) + ')', 0.2)} AS ({self.deeper(self.query)})", 1, 2)
            text = "WITH " + maybe("RECURSIVE ", 0.05) + ctes + " "
        text += self.body()
        if self.depth > 0 and rng.random() < 0.1:
            text += " " + some(self.pipe_step, 1, 2, " ")
        return text + self.modifiers()


def statement():
    query = Query(rng.randint(1, 3)).query()
    if rng.random() < 0.1:
        kind = pick("MATERIALIZED VIEW", "STREAMING TABLE", "VIEW", "TEMPORARY VIEW")
        query = f"CREATE {kind} mv AS {query}"
    return query


queries = set()
while len(queries) < count:
    text = statement()
    # Comments and a `;` inside would change how the statements split.
    if ";" not in text and "--" not in text and "/*" not in text.replace("/*+", ""):
        queries.add(text + ";")
judge(tool, sorted(queries))
