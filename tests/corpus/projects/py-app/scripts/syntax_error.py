def summarize(rows):
    total = 0
    for row in rows
        total += row["value"]
    return total
