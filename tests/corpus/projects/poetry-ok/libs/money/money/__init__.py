def cents(value):
    return round(value * 100)
