from money import cents


def price(value):
    return cents(value) / 100
