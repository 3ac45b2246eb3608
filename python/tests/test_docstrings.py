"""Every docstring example of the package runs and shows what it says."""

import doctest

import cardsim
import cardsim._run
import cardsim.holdem


def test_docstring_examples():
    for module in (cardsim, cardsim._run, cardsim.holdem):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted >= 3, module.__name__
    # Every public function has an example.
    for name in cardsim.__all__:
        obj = getattr(cardsim, name)
        if callable(obj) and not isinstance(obj, type):
            assert ">>>" in (obj.__doc__ or ""), name
