"""dplab: a teaching lab for differential privacy.

The public API is flat: ``dplab.laplace_mechanism``, ``dplab.gaussian_sigma``,
``dplab.check``, ... Each module's ``__all__`` says what it exports; this file
re-exports them. Notebooks live in ``notebooks/``; see README.md.
"""

from dplab import bmi as _bmi
from dplab import composition as _composition
from dplab import contingency as _contingency
from dplab import datasets as _datasets
from dplab import inference as _inference
from dplab import mechanisms as _mechanisms
from dplab import range_optimization as _range_optimization
from dplab import range_queries as _range_queries
from dplab import sensitivity as _sensitivity
from dplab import simulate as _simulate
from dplab.bmi import *  # noqa: F403
from dplab.composition import *  # noqa: F403
from dplab.contingency import *  # noqa: F403
from dplab.datasets import *  # noqa: F403
from dplab.exercises import check
from dplab.inference import *  # noqa: F403
from dplab.mechanisms import *  # noqa: F403
from dplab.range_optimization import *  # noqa: F403
from dplab.range_queries import *  # noqa: F403
from dplab.sensitivity import *  # noqa: F403
from dplab.simulate import *  # noqa: F403

__version__ = "0.1.0"

_MODULES = (_mechanisms, _composition, _sensitivity, _inference, _datasets, _bmi, _contingency,
            _range_queries, _range_optimization,
            _simulate)
__all__ = [name for module in _MODULES for name in module.__all__] + ["check"]
