"""Lesson 4, AboveThreshold and the sparse vector technique (``notebooks/04_above_threshold_proof.ipynb``)."""
