"""Lesson 3, hierarchical vs flat range queries (``notebooks/03_hierarchy_vs_flat_range_queries.ipynb``)."""
