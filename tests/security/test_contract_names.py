"""Look-alike names: a house bot's name spelt with confusable letters.

``"r\\u0430ndom #1"`` (Cyrillic a), ``"rand\\u043em #1"`` (Cyrillic o) and
``"\\u0280andom #1"`` (Latin small capital R) registered and showed exactly like
the house bot ``random #1``. The reserved-name check now compares Unicode TS 39
skeletons (:mod:`server.services.confusables`): each is refused as ``reserved``
and nothing is stored.
"""

from __future__ import annotations

import pytest

from server.services import names
from tests.api.helpers import assert_error
from tests.embed.conftest import register_bots
from tests.security.test_invitation_spam import everything

LOOK_ALIKES = [
    "r\u0430ndom #1",  # CYRILLIC SMALL LETTER A
    "rand\u043em #1",  # CYRILLIC SMALL LETTER O
    "\u0280andom #1",  # LATIN LETTER SMALL CAPITAL R
    "rand\u03bfm #2",  # GREEK SMALL LETTER OMICRON
    "\u0433\u0430\u0578d\u043em #1",  # Cyrillic ghe and a, Armenian vo, Cyrillic o
    "RAND\u041eM #3",  # CYRILLIC CAPITAL LETTER O
    "ran\u0501om #1",  # CYRILLIC SMALL LETTER KOMI DE
    "rando\u217f #1",  # SMALL ROMAN NUMERAL ONE THOUSAND (m)
    "randorn #1",  # "rn" reads as "m" (TS 39 maps m to rn)
    "rand0m #1",  # digit zero for o
    "concerto signa\u04cfs #1",  # CYRILLIC SMALL LETTER PALOCHKA for l
]


@pytest.mark.parametrize("name", LOOK_ALIKES, ids=[f"alike{i}" for i in range(len(LOOK_ALIKES))])
def test_a_confusable_spelling_of_a_house_bot_s_name_is_reserved(api, redis_client, name):
    register_bots(api)
    before = everything(redis_client)
    details = assert_error(api.post("/v1/players", {"name": name}), 400, "invalid_request")
    assert details["name"] == ["reserved: it reads as a house bot's name"], details
    assert everything(redis_client) == before


def test_names_that_only_share_letters_with_a_house_bot_still_register(api):
    register_bots(api)
    cyrillic = "\u0440\u0430\u043d\u0434\u043e\u043c"  # "random" in Russian
    for name in (cyrillic, "randomly", "Ra\u00fal #1", "r\u00e4ndom #1"):
        reply = api.post("/v1/players", {"name": name})
        assert reply.status == 201, (name, reply.body)
        assert reply.body["name"] == name


def test_the_skeleton_folds_case_width_and_confusables_alike():
    assert names.skeleton("r\u0430ndom #1") == names.skeleton("random #1")
    assert names.skeleton("\u0280AND\u041eM") == names.skeleton("random")
    assert names.skeleton("r\u00e4ndom") != names.skeleton("random")
