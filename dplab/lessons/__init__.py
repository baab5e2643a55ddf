"""One module per notebook: its figures, report rows, widget panels and exercises."""

from dplab.lessons import laplace_gaussian

#: In teaching order; ``python -m dplab figures`` and ``answers`` walk this list.
LESSONS = [laplace_gaussian]

__all__ = ["LESSONS", "laplace_gaussian"]
