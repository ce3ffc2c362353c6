"""Tiny inventory package used by the Winnow corpus."""

from .core import Item, Inventory, parse_line
from .pricing import apply_discount, total_price

__all__ = ["Item", "Inventory", "parse_line", "apply_discount", "total_price"]
