"""One package per notebook, ``lNN_<notebook stem>``: ``report.py`` (report rows, the lesson's
constants and small tables), ``exercises.py``, ``views.py`` (figures and widget panels, declared
in ``PANELS``) and optionally ``bench.py`` (its library targets, timed). ``dplab.lab.registry``
walks them in order."""
