"""The two screens a person sees the site on in the browser tests: a desktop at 1280×800
and a phone held upright at 390×844; ``@SCREENS`` runs a test on each."""

import pytest

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENS = pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["1280", "390"])
