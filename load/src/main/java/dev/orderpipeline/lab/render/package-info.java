/** Writing existing reports again from their report.json. */
@NullMarked
package dev.orderpipeline.lab.render;

import org.jspecify.annotations.NullMarked;
