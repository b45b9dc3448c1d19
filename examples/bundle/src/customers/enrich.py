# A Python source of the customers pipeline: pipeline-sql checks the SQL sources only.
from pyspark import pipelines as dp


@dp.materialized_view
def customer_count():
    return spark.read.table("customers").groupBy().count()
