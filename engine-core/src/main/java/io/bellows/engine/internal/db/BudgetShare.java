package io.bellows.engine.internal.db;

import io.bellows.engine.WriteBufferManager;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreBudget;
import io.bellows.engine.internal.memstore.MemStoreBudgets;

/**
 * The engine's share of a {@link WriteBufferManager}'s budget: joins it once the engine is open, reports
 * the MemStore's memory after write groups, switches and flushes, and leaves at close. Without a manager
 * every call is a no-op.
 */
final class BudgetShare {
    private final MemStore memstore;
    private final MemStoreBudget budget;
    private volatile MemStoreBudget.Member member;

    BudgetShare(WriteBufferManager manager, MemStore memstore) {
        this.memstore = memstore;
        this.budget = manager == null ? null : MemStoreBudgets.of(manager);
    }

    /** Joins the budget with what recovery left in the MemStore. */
    void join(MemStoreBudget.Flushable engine) {
        if (budget != null) {
            member = budget.join(engine);
            report();
        }
    }

    void report() {
        MemStoreBudget.Member m = member;
        if (m != null) {
            memstore.reportMemory(m);
        }
    }

    /** Takes back what the engine reported; the budget asks it for nothing more. */
    void leave() {
        MemStoreBudget.Member m = member;
        if (m != null) {
            m.close();
        }
    }
}
