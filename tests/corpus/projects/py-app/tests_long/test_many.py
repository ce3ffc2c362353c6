import pytest

from inventory import apply_discount, parse_line


@pytest.mark.parametrize("n", range(1200))
def test_parse_quantity(n):
    item = parse_line(f"item{n},{n},1.0")
    assert item.quantity == n
    assert item.name == f"item{n}"


@pytest.mark.parametrize("percent", range(0, 101))
def test_discount_zero_price(percent):
    assert apply_discount(0.0, percent) == 0


@pytest.mark.parametrize("n", range(1000))
def test_parse_price(n):
    item = parse_line(f"p{n},1,{n}.0")
    assert item.price == float(n)


def test_discount_precision():
    assert apply_discount(10.01, 0) == 10.01


def test_parse_tags_order():
    assert parse_line("x,1,1.0,b;a").tags == ["a", "b"]
