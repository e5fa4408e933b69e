-- sfdb: additive — a new index: an older release neither knows nor minds it.
-- When the next delayed item of a node's queue becomes due: Dequeue answers it when it
-- claims nothing (next_due_in_ms), so the queues daemon wakes when that item is due
-- instead of at its next safety poll. One index dive per queue (MIN over not_before).
ALTER TABLE work_items ADD KEY work_items_due (node_uuid, queue, state, not_before);
