"""The lab that shows the library: figures, widget panels, lessons, the formula report,
exercises, benchmarks, the browser driver and the command line.

Nothing outside ``dplab/lab/`` imports it (``dplab/__main__.py`` and the lazy
``dplab.check`` aside; a test builds the import graph to say so). Each notebook has
a lesson package ``lessons/lNN_<notebook stem>/`` with ``report.py`` (report rows and the
lesson's constants; no matplotlib or ipywidgets), ``exercises.py``, ``views.py`` (figures and
widget panels, one View class per panel, declared in ``PANELS``) and, where it has library
targets to time, ``bench.py``.
"""
