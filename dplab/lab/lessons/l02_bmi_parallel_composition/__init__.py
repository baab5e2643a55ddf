"""Lesson 2, BMI and parallel composition (``notebooks/02_bmi_parallel_composition.ipynb``)."""
