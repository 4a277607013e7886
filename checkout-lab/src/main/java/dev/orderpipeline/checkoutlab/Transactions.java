package dev.orderpipeline.checkoutlab;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** Transaction templates with the isolation spelled out, since it is what the strategies differ in. */
final class Transactions {

    private Transactions() {}

    static TransactionTemplate readCommitted(PlatformTransactionManager transactions) {
        return withIsolation(transactions, TransactionDefinition.ISOLATION_READ_COMMITTED);
    }

    static TransactionTemplate serializable(PlatformTransactionManager transactions) {
        return withIsolation(transactions, TransactionDefinition.ISOLATION_SERIALIZABLE);
    }

    private static TransactionTemplate withIsolation(PlatformTransactionManager transactions, int isolation) {
        var template = new TransactionTemplate(transactions);
        template.setIsolationLevel(isolation);
        return template;
    }
}
