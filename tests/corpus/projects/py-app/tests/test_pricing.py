import pytest

from inventory import Item, apply_discount, total_price


def test_total_price():
    items = [Item("a", 2, 1.5), Item("b", 1, 4.0)]
    assert total_price(items) == 7.0


def test_discount_keeps_cents():
    assert apply_discount(19.99, 10) == pytest.approx(17.991)


@pytest.mark.parametrize("percent", [-1, 101, 250])
def test_discount_rejects_invalid(percent):
    with pytest.raises(ValueError):
        apply_discount(10.0, percent)


@pytest.mark.parametrize("price,percent,expected", [(100.0, 0, 100.0), (100.0, 50, 50.0), (80.0, 25, 60.0), (9.5, 10, 8.55)])
def test_discount_table(price, percent, expected):
    assert apply_discount(price, percent) == expected


def test_summary_dict():
    summary = {"count": 3, "names": ["a", "b", "c"], "total": 12.5, "currency": "EUR"}
    assert summary == {"count": 3, "names": ["a", "b", "d"], "total": 12.5, "currency": "USD"}


def test_long_list():
    assert list(range(12)) == list(range(11)) + [99]


@pytest.mark.xfail(reason="known rounding issue")
def test_xfail_rounding():
    assert apply_discount(0.3, 0) == 0.3


@pytest.fixture
def broken_fixture():
    raise RuntimeError("database unavailable")


def test_uses_broken_fixture(broken_fixture):
    assert broken_fixture
