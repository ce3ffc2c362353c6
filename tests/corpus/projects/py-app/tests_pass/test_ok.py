import unittest

from inventory import Inventory, Item, total_price


class OkTest(unittest.TestCase):
    def test_add_and_get(self):
        inv = Inventory()
        inv.add(Item("a", 1, 2.0))
        self.assertEqual(inv.get("a").price, 2.0)

    def test_total(self):
        self.assertEqual(total_price([Item("a", 2, 2.0)]), 4.0)

    def test_total_quantity(self):
        inv = Inventory()
        inv.add(Item("a", 1, 2.0))
        inv.add(Item("b", 4, 2.0))
        self.assertEqual(inv.total_quantity(), 5)
