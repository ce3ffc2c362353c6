package pricing

import "testing"

func TestDiscount(t *testing.T) {
	if got := Discount(100, 25); got != 75 {
		t.Errorf("Discount = %v", got)
	}
}

func TestDiscountZero(t *testing.T) {
	if got := Discount(19.99, 0); got != 19.99 {
		t.Errorf("Discount = %v", got)
	}
}
