import sys

from .core import Inventory, parse_line


def main(argv):
    inv = Inventory()
    with open(argv[1]) as fh:
        for line in fh:
            inv.add(parse_line(line))
    print("total quantity:", inv.total_quantity())


if __name__ == "__main__":
    main(sys.argv)
