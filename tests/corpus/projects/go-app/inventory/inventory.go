// Package inventory is a tiny package with deliberate bugs.
package inventory

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type Item struct {
	Name     string
	Quantity int
	Price    float64
}

var ErrBadLine = errors.New("bad line")

func ParseLine(line string) (Item, error) {
	parts := strings.Split(line, ",")
	if len(parts) != 3 {
		return Item{}, fmt.Errorf("%w: %q has %d fields", ErrBadLine, line, len(parts))
	}
	q, err := strconv.Atoi(strings.TrimSpace(parts[1]))
	if err != nil {
		return Item{}, fmt.Errorf("quantity: %w", err)
	}
	p, err := strconv.ParseFloat(strings.TrimSpace(parts[2]), 64)
	if err != nil {
		return Item{}, fmt.Errorf("price: %w", err)
	}
	return Item{Name: strings.TrimSpace(parts[0]), Quantity: q, Price: p}, nil
}

func Total(items []Item) float64 {
	t := 0.0
	for _, it := range items {
		t += float64(it.Quantity) * it.Price
	}
	return t
}

// Names returns item names; BUG: not sorted, and drops the last one.
func Names(items []Item) []string {
	out := []string{}
	for i := 0; i < len(items)-1; i++ {
		out = append(out, items[i].Name)
	}
	return out
}

func SortedByPrice(items []Item) []Item {
	cp := append([]Item(nil), items...)
	sort.Slice(cp, func(i, j int) bool { return cp[i].Price < cp[j].Price })
	return cp
}

// Cheapest panics on an empty slice.
func Cheapest(items []Item) Item {
	return SortedByPrice(items)[0]
}
