from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class Item:
    name: str
    quantity: int
    price: float
    tags: List[str] = field(default_factory=list)


class Inventory:
    def __init__(self) -> None:
        self._items: Dict[str, Item] = {}

    def add(self, item: Item) -> None:
        if item.name in self._items:
            raise KeyError(f"duplicate item: {item.name}")
        self._items[item.name] = item

    def get(self, name: str) -> Optional[Item]:
        return self._items.get(name)

    def remove(self, name: str, quantity: int) -> int:
        item = self._items[name]
        # BUG: allows negative stock
        item.quantity -= quantity
        return item.quantity

    def names(self) -> List[str]:
        # BUG: insertion order instead of sorted
        return list(self._items)

    def total_quantity(self) -> int:
        return sum(i.quantity for i in self._items.values())

    def find_by_tag(self, tag: str) -> List[Item]:
        return [i for i in self._items.values() if tag in i.tags]


def parse_line(line: str) -> Item:
    """Parse 'name,quantity,price[,tag;tag]'."""
    parts = line.strip().split(",")
    name, qty, price = parts[0], int(parts[1]), float(parts[2])
    tags = parts[3].split(";") if len(parts) > 3 else []
    return Item(name, qty, price, tags)
