package com.example.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class Inventory {
    private final Map<String, Integer> stock = new LinkedHashMap<>();

    public void add(String name, int quantity) {
        if (quantity < 0) {
            throw new IllegalArgumentException("negative quantity for " + name);
        }
        stock.merge(name, quantity, Integer::sum);
    }

    public int quantity(String name) {
        return stock.get(name);
    }

    /** BUG: not sorted. */
    public List<String> names() {
        return new ArrayList<>(stock.keySet());
    }

    public int total() {
        int t = 0;
        for (int q : stock.values()) {
            t += q;
        }
        return t;
    }
}
