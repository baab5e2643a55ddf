"""Lesson 1, Laplace vs Gaussian (``notebooks/01_laplace_vs_gaussian.ipynb``)."""
