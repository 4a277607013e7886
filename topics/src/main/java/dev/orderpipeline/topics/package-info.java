/**
 * The one owner of how the pipeline's topics are created: their sizes ({@code orderpipeline.topics.*}) and the
 * {@code NewTopic} each app declares from them, so that whichever app starts first creates a topic as the other
 * would. The names and default sizes are the contract's ({@code dev.orderpipeline.contract.Topics}); which topics an
 * app declares is the app's choice.
 */
@NullMarked
package dev.orderpipeline.topics;

import org.jspecify.annotations.NullMarked;
