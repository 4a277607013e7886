/**
 * What a lab run leaves behind: report.json (parameters, machine, versions, timestamps, every figure) and report.md
 * (the tables, in the spirit of the articles the lab reproduces, and the PNG charts rendered here with JFreeChart);
 * and the same tables on the console.
 */
@NullMarked
package dev.orderpipeline.lab.report;

import org.jspecify.annotations.NullMarked;
