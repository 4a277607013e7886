package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** One drain; the fields are the options of {@code bin/lab drain}, a {@code null} ceiling meaning none. */
public record DrainSettings(
        int commands,
        KeyDistribution keys,
        int workers,
        Duration lagInterval,
        Duration timeout,
        @Nullable CeilingSettings ceiling) {

    public DrainSettings {
        Require.positive("commands", commands);
        Require.check(workers >= 1, "at least one worker drains: " + workers);
        Require.positive("the lag interval", lagInterval);
        Require.positive("the timeout", timeout);
    }
}
