package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One drain; the fields are the options of {@code bin/lab drain}, a {@code null} ceiling meaning none.
 *
 * @param ceilingOnly the ceiling alone, on a database only: the drain's own fields were not used (reports written
 *     before there was a choice: false)
 */
public record DrainSettings(
        int commands,
        KeyDistribution keys,
        int workers,
        Duration lagInterval,
        Duration timeout,
        @Nullable CeilingSettings ceiling,
        Boolean ceilingOnly) {

    public DrainSettings {
        Require.positive("commands", commands);
        Require.check(workers >= 1, "at least one worker drains: " + workers);
        Require.positive("the lag interval", lagInterval);
        Require.positive("the timeout", timeout);
        ceilingOnly = ceilingOnly != null && ceilingOnly;
        Require.check(!ceilingOnly || ceiling != null, "--ceiling-only needs the ceiling's settings");
    }

    /** A drain, with the ceiling before and after it unless {@code ceiling} is {@code null}. */
    public DrainSettings(
            int commands,
            KeyDistribution keys,
            int workers,
            Duration lagInterval,
            Duration timeout,
            @Nullable CeilingSettings ceiling) {
        this(commands, keys, workers, lagInterval, timeout, ceiling, false);
    }
}
