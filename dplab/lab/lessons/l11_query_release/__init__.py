"""Lesson 11, query release in practice: MWEM and DualQuery (``notebooks/11_query_release.ipynb``)."""
