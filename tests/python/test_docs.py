"""docs/python.md's examples, run as doctests in a folder holding people.ttl."""
import doctest
import shutil

from conftest import PEOPLE, REPOSITORY


def test_the_examples_of_the_python_docs(tmp_path, monkeypatch):
    shutil.copy(PEOPLE, tmp_path)
    monkeypatch.chdir(tmp_path)
    failed, tried = doctest.testfile(str(REPOSITORY / "docs" / "python.md"), module_relative=False,
                                     optionflags=doctest.ELLIPSIS)
    assert failed == 0 and tried >= 40
