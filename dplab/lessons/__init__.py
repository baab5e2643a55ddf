"""One module per notebook: its figures, report rows, widget panels and exercises."""

from dplab.lessons import bmi_composition, laplace_gaussian, range_queries

#: In teaching order; ``python -m dplab figures`` and ``answers`` walk this list.
LESSONS = [laplace_gaussian, bmi_composition, range_queries]

__all__ = ["LESSONS", "bmi_composition", "laplace_gaussian", "range_queries"]
