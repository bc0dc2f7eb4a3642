-- Properties relating the default rules (A) and this folder (B), for
-- `rulesrun compare rules examples/graduated-recovery --property examples/properties/graduated-recovery.lua`
-- (docs/compare.md, "Properties"). Each prop_ function gets A's and B's replayed history of the
-- same generated events (one step per event: event, ok, decisions, state) and returns true.

cases = {
  prop_b_never_recovers_faster = gen.history("pressure", { days = 21 }),
  prop_b_decides_the_same_tiers = gen.history("pressure", { days = 21 }),
}

-- Graduated recovery steps down one tier at a time: after every event B's tier is at least A's.
function prop_b_never_recovers_faster(a, b)
  for i, step in ipairs(a) do
    if step.ok and b[i].ok then
      expect_true(b[i].state.current_tier >= step.state.current_tier, "event " .. i .. " (" .. step.event.type .. ")")
    end
  end
  return true
end

-- Breaks, on purpose: the two readings part on the first YES after tier 2 or 3.
function prop_b_decides_the_same_tiers(a, b)
  for i, step in ipairs(a) do
    if step.ok and b[i].ok then expect_eq(b[i].state.current_tier, step.state.current_tier, "event " .. i) end
  end
  return true
end
