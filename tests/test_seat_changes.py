"""A phone's own seat between games, on the real firmware: it renames itself (by the name rule: taken
names, the length) and leaves the table after a confirmation on the page; during a game the box
refuses both with how to ask the reader, and the page says so instead of offering them."""

import pytest
from boxrig import ApiError

pytest_plugins = ("page_fakebox", "browser_firmware")


def refused(box, path, body, token):
    with pytest.raises(ApiError) as info:
        box.api("POST", path, body, token=token)
    return info.value


def test_a_phone_renames_itself_and_leaves_between_games_but_not_during_one(fw_box):
    box = fw_box  # Token Tide's join screen
    ada, bo, cy = (box.join(name)["token"] for name in ("Ada", "Bo", "Cy"))
    assert box.api("POST", "/api/rename", {"name": "Ann"}, token=ada) == {"seat": 0, "name": "Ann"}
    assert [s["name"] for s in box.state()["seats"]] == ["Ann", "Bo", "Cy"]
    assert box.state(ada)["you"] == {"seat": 0, "name": "Ann"}
    assert "taken" in refused(box, "/api/rename", {"name": "bo"}, ada).body["error"]
    assert refused(box, "/api/rename", {"name": "X" * 13}, ada).status == 400
    assert refused(box, "/api/rename", {"name": "Zed"}, None).status == 401
    assert box.api("POST", "/api/rename", {"name": "Ann"}, token=ada)["name"] == "Ann"  # its own name
    assert box.api("POST", "/api/leave", {}, token=cy) == {"ok": True}
    assert [s["name"] for s in box.state()["seats"]] == ["Ann", "Bo"]
    assert box.state(cy)["you"] is None
    assert box.state(bo)["you"] == {"seat": 1, "name": "Bo"}

    box.join("Cy")
    box.press("C")  # setup
    box.press("C")  # the game starts
    assert box.state(ada)["box"] == "play"
    for path, body in (("/api/rename", {"name": "Zoe"}), ("/api/leave", {})):
        e = refused(box, path, body, ada)
        assert e.status == 409 and "ask them to use the box's menu" in e.body["error"], e.body
    assert [s["name"] for s in box.state()["seats"]] == ["Ann", "Bo", "Cy"]


@pytest.mark.browser
def test_the_page_renames_and_leaves_after_asking(fw_box, open_fw_phone):
    from phone_flow import join
    from playwright.sync_api import expect

    ada, bo = open_fw_phone(), open_fw_phone()
    join(ada, "Ada")
    join(bo, "Bo")
    ada.get_by_label("Play as").fill("Bo")
    ada.get_by_role("button", name="Change name").click()
    expect(ada.locator("#renameErr")).to_have_text("That name is taken at this table.")
    ada.get_by_label("Play as").fill("Adelaide")
    ada.get_by_role("button", name="Change name").click()
    expect(ada.locator("#me")).to_have_text("You: Adelaide")
    expect(bo.locator("#seats li").first).to_contain_text("Adelaide")

    bo.get_by_role("button", name="Leave the table").click()
    bo.get_by_role("button", name="Stay").click()  # asked first: nothing happens on "Stay"
    expect(bo.locator("#leaveAsk")).to_be_hidden()
    assert [s["name"] for s in fw_box.state()["seats"]] == ["Adelaide", "Bo"]
    bo.get_by_role("button", name="Leave the table").click()
    bo.get_by_role("button", name="Leave", exact=True).click()
    expect(bo.get_by_role("heading", name="Join the table")).to_be_visible()
    expect(ada.locator("#seats li")).to_have_count(1)
    assert [s["name"] for s in fw_box.state()["seats"]] == ["Adelaide"]

    # during a game the page says to ask the reader
    fw_box.join("Cy")
    fw_box.press("C")
    fw_box.press("C")
    expect(ada.locator("#seatNote")).to_be_visible()
    expect(ada.locator("#mine")).to_be_hidden()
