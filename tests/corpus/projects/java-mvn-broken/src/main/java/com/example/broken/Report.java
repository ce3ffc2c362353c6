package com.example.broken;

import java.util.List;
import java.util.Map;

public class Report {
    private final Map<String, Integer> counts;

    public Report(Map<String, Integer> counts) {
        this.counts = counts;
    }

    public int total() {
        int sum = 0;
        for (String value : counts.values()) {
            sum += value;
        }
        return sum;
    }

    public String render(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append(n).append(": ").append(counts.get(n)).append('\n');
        }
        return sb.toString();
    }

    public String title() {
        return Formatter.heading("Report");
    }

    public int size() {
        String n = counts.size();
        return n;
    }
}
