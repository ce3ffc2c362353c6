package pricing

import "math"

func Discount(price float64, percent int) float64 {
	return math.Round(price*float64(100-percent)) / 100
}
