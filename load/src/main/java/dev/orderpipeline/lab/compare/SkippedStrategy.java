package dev.orderpipeline.lab.compare;

/** A strategy that was asked for but not run, and why. */
public record SkippedStrategy(String strategy, String reason) {}
