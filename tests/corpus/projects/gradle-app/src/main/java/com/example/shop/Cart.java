package com.example.shop;

import java.util.ArrayList;
import java.util.List;

/** A shopping cart with a discount rule (deliberately buggy). */
public class Cart {
    private final List<Integer> pricesCents = new ArrayList<>();

    public void add(int priceCents) {
        if (priceCents < 0) {
            throw new IllegalArgumentException("negative price: " + priceCents);
        }
        pricesCents.add(priceCents);
    }

    public int count() {
        return pricesCents.size();
    }

    public int totalCents() {
        int total = 0;
        for (int p : pricesCents) {
            total += p;
        }
        // BUG: the 10% discount should start at 10000 cents, not above it
        if (total > 10000) {
            total = total * 90 / 100;
        }
        return total;
    }

    public int cheapest() {
        // BUG: throws on an empty cart instead of returning 0
        int min = pricesCents.get(0);
        for (int p : pricesCents) {
            min = Math.min(min, p);
        }
        return min;
    }
}
