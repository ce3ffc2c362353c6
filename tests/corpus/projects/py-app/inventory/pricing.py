from __future__ import annotations

from typing import Iterable

from .core import Item


def total_price(items: Iterable[Item]) -> float:
    return sum(i.quantity * i.price for i in items)


def apply_discount(price: float, percent: int) -> float:
    if not 0 <= percent <= 100:
        raise ValueError(f"invalid discount: {percent}")
    # BUG: rounds to int
    return round(price * (100 - percent) / 100)


def format_price(price: float) -> str:
    return "$" + price


def cheapest(items: list[Item]) -> Item:
    best: Item = None
    for item in items:
        if best is None or item.price < best.price:
            best = item
    return best


def price_map(items: list[Item]) -> dict[str, int]:
    return {i.name: i.price for i in items}
