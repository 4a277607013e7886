package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.DevelopmentTokens;
import dev.orderpipeline.lab.measure.ResourceSampler;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A pipeline that runs already, given by the URLs of its API replicas (and, optionally, its database and broker). */
public final class UrlTarget implements Target {

    private final List<ApiClient> apis;
    private final @Nullable Database database;
    private final @Nullable String bootstrapServers;
    private final HttpClient http;

    public UrlTarget(
            List<String> apiUrls,
            @Nullable Database database,
            @Nullable String bootstrapServers,
            Duration timeout,
            DevelopmentTokens tokens) {
        if (apiUrls.isEmpty()) {
            throw new IllegalArgumentException("at least one API URL is needed");
        }
        http = ApiClient.newHttpClient();
        apis = apiUrls.stream()
                .map(url -> new ApiClient(url, http, timeout, tokens))
                .toList();
        this.database = database;
        this.bootstrapServers = bootstrapServers;
    }

    @Override
    public List<ApiClient> apis() {
        return apis;
    }

    @Override
    public @Nullable Database database() {
        return database;
    }

    @Override
    public @Nullable String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public List<ResourceSampler.Watched> processes() {
        return List.of();
    }

    @Override
    public Map<String, String> description() {
        var description = new LinkedHashMap<String, String>();
        description.put("mode", "given URLs");
        description.put(
                "apiUrls",
                String.join(", ", apis.stream().map(ApiClient::baseUrl).toList()));
        description.put("apiReplicas", Integer.toString(apis.size()));
        description.put("database", database == null ? "n/a (order-api's invariants endpoint)" : database.jdbcUrl());
        description.put("databaseDurability", database == null ? "n/a" : database.durability());
        description.put("bootstrapServers", bootstrapServers == null ? "n/a" : bootstrapServers);
        return description;
    }

    @Override
    public void close() {
        http.close();
    }
}
