package main

import (
	"fmt"
	"os"

	"example.com/winnow/goapp/inventory"
)

type store struct {
	items map[string]*inventory.Item
}

func (s *store) price(name string) float64 {
	return s.items[name].Price
}

func main() {
	s := &store{items: map[string]*inventory.Item{"bolt": {Name: "bolt", Quantity: 1, Price: 0.5}}}
	fmt.Println("bolt:", s.price("bolt"))
	fmt.Println("gear:", s.price(os.Args[0][:0]+"gear"))
}
