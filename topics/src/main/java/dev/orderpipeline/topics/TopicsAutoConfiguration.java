package dev.orderpipeline.topics;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** Binds {@code orderpipeline.topics.*} and offers the {@link TopicDeclarations} built from it to every app. */
@AutoConfiguration
@EnableConfigurationProperties(TopicsProperties.class)
public class TopicsAutoConfiguration {

    @Bean
    TopicDeclarations topicDeclarations(TopicsProperties properties) {
        return new TopicDeclarations(properties);
    }
}
