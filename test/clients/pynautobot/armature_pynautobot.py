"""pytest plugin: pynautobot's own tests/integration against a running Armature server.

Loaded with ``pytest --noconftest -p armature_pynautobot`` (this directory on PYTHONPATH,
PYNAUTOBOT_SRC naming pynautobot's source tree). The suite's conftest clones the
netbox devicetype-library from GitHub inside a fixture; nothing else in it needs replacing.
So the conftest is imported as it is, its fixtures are offered under their own names (the
tests and ``nb_client`` run unchanged), and only ``devicetype_library_repo_dirpath`` answers
with the stand-in library next to this file instead of a clone.
"""

import importlib.util
import os

import pytest

_conftest_path = os.path.join(os.environ["PYNAUTOBOT_SRC"], "tests", "integration", "conftest.py")
_spec = importlib.util.spec_from_file_location("pynautobot_integration_conftest", _conftest_path)
_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conftest)

nb_client = _conftest.nb_client


@pytest.fixture(scope="session")
def devicetype_library_repo_dirpath():
    """The stand-in devicetype-library: the files the conftest lists, with the library's keys."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "devicetype-library")
