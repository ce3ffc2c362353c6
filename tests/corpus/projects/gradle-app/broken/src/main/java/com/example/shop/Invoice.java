package com.example.shop;

import java.util.List;

public class Invoice {
    private final List<Integer> lines;

    public Invoice(List<Integer> lines) {
        this.lines = lines;
    }

    public int total() {
        int sum = 0;
        for (Integer line : lines) {
            sum += line;
        }
        return sum;
    }

    public String label() {
        String count = lines.size();
        return "Invoice with " + count + " lines: " + formatCents(total());
    }
}
