import os, sys
import json
from typing import List

from .core import Inventory


def render(inv: Inventory, out=sys.stdout) -> None:
    for name in inv.names():
        item = inv.get(name)
        out.write("%s\t%d\t%.2f\n" % (name, item.quantity, item.price))
    unused = 1


def load(path):
    with open(path) as fh:
        data = json.load(fh)
    inv = Inventory()
    for row in data["items"]:
        inv.add(row)  # type: ignore
    return inv

def  badly_spaced( a,b ):
    if a == None:
        return b
    l = [x for x in range(10) if x%2==0]
    return a+b+len(l)
